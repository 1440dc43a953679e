/**
 * Calls the control plane of the emulator at `url` (`/_emulator/<path>`): what tests, the demo
 * and the benchmarks use to script and read it. Throws on a refusal, with the emulator's answer.
 */
export function controlPlane(url: string) {
  // biome-ignore lint/suspicious/noExplicitAny: callers read the parts of the answer they asked for.
  return async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${url}/_emulator/${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`control plane ${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
}

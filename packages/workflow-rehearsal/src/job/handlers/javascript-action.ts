import { condition } from "../../expressions.js";
import type { LocalAction } from "../../local-actions.js";
import type { StepRecord, StepResult } from "../../records.js";
import type { StepRun } from "../step-handler.js";
import { stepTimeoutMs } from "../timeouts.js";

/**
 * A local JavaScript action, run with Node as the runner runs it (`node <file>` in the workspace):
 * its inputs as INPUT_<NAME> (uppercase, spaces as _), `runs.main`, then `runs.post` after the
 * job's steps where `post-if` holds (default always(), read with the job's status then), with what
 * main saved (GITHUB_STATE, save-state) as STATE_<name>; a post that fails fails the job
 * (`JobRun.runPosts`). Its `runs.pre` is never run (see `LocalAction`). Its outputs are what main
 * wrote to GITHUB_OUTPUT. Only under --run-shell: it runs code of the repository's, as a `run:`
 * step does.
 */
export async function runJavaScriptAction<R extends StepResult>(
  { job, frame, step, label, scope }: StepRun<R>,
  action: Extract<LocalAction, { kind: "node" }>,
  inputs: Record<string, string>,
): Promise<StepResult & { notRehearsed?: string }> {
  const runScript = job.options.runScript;
  if (!runScript)
    return {
      code: 0,
      outputs: {},
      notRehearsed: `a JavaScript action (${action.using}), which runs only with --run-shell`,
    };
  const github = { ...(scope.contexts.github as Record<string, unknown>), action_path: action.folder };
  const env = {
    ...(scope.contexts.env as Record<string, string>),
    ...Object.fromEntries(
      Object.entries(inputs).map(([name, value]) => [
        `INPUT_${name.replace(/ /g, "_").toUpperCase()}`,
        value,
      ]),
    ),
  };
  const node = (file: string, name: string, more: Record<string, string> = {}, stepTimeout?: number) =>
    job.timed("machine", stepTimeout, (timeout) =>
      runScript({
        name,
        script: "",
        javascriptFile: file,
        env: { ...env, ...more },
        path: [...job.path],
        variables: job.variables(github),
        timeout,
      }),
    );
  const main = await node(action.main, label, {}, stepTimeoutMs(step.timeoutMinutes, scope));
  job.applyFiles(frame, main);
  const { post } = action;
  if (post)
    job.posts.push(async (status) => {
      if (!condition(post.if, { ...scope, contexts: { ...scope.contexts, github }, status })) return true;
      const state = Object.fromEntries(Object.entries(main.state ?? {}).map(([k, v]) => [`STATE_${k}`, v]));
      const record: StepRecord<R> = { name: `Post ${label}`, kind: "script" };
      job.options.onStepStart?.(record);
      record.script = await node(post.file, record.name, state);
      job.applyFiles(frame, record.script);
      job.end(record);
      return record.script.code === 0;
    });
  return { code: main.code, outputs: main.outputs };
}

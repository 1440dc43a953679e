import { spawnSync } from "node:child_process";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { machineEnv } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { job, printed, rehearse, run, userMachine } from "./rehearse-machine.js";
import { BIN, runCli } from "./run-cli.js";

// `cwp rehearse --run-shell` on the machine where a developer keeps their work and credentials:
// scripts that attack the clone, the home and the secrets (steps that hang, linger or outlive the
// rehearsal: rehearse-bounds.test.ts; hostile workflow files and file commands: rehearse-files.test.ts). Each case cites the
// GitHub page whose rule it holds the rehearsal to.

/** Every file under `folder` (`.git` too) and its bytes, to compare byte for byte. */
async function snapshot(folder: string, except?: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (path === except) continue;
      if (entry.isDirectory()) await walk(path);
      else files[relative(folder, path)] = (await readFile(path)).toString("base64");
    }
  };
  await walk(folder);
  return files;
}

describe("cwp rehearse --run-shell: the machine's network settings, and nothing else", () => {
  it("hands a step the proxies, CA files and locale of the environment it runs in, naming them; never a credential of the user's", async () => {
    const network: Record<string, string> = {
      HTTP_PROXY: "http://proxy.internal:3128",
      HTTPS_PROXY: "http://proxy.internal:3128",
      no_proxy: "localhost,.internal",
      ALL_PROXY: "socks5://proxy.internal:1080",
      NODE_EXTRA_CA_CERTS: "/etc/ssl/gateway.pem",
      SSL_CERT_FILE: "/etc/ssl/certs/ca-certificates.crt",
      SSL_CERT_DIR: "/etc/ssl/certs",
      REQUESTS_CA_BUNDLE: "/etc/ssl/gateway.pem",
      CURL_CA_BUNDLE: "/etc/ssl/gateway.pem",
      GIT_SSL_CAINFO: "/etc/ssl/gateway.pem",
      LANG: "C.UTF-8",
      LC_ALL: "C.UTF-8",
    };
    const user = { AWS_SECRET_ACCESS_KEY: "aws_s3cret_of_the_user", NPM_TOKEN: "npm_s3cret_of_the_user" };
    const names = [...Object.keys(network), ...Object.keys(user)];
    const machine = await userMachine(
      job(run(names.map((name) => `echo "${name}=\${${name}-unset}"`).join("\n"))),
    );
    const result = await rehearse(machine, [], { ...network, ...user });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const lines = printed(result.stdout);
    for (const [name, value] of Object.entries(network)) expect(lines).toContain(`${name}=${value}`);
    for (const name of Object.keys(user)) expect(lines).toContain(`${name}=unset`);
    for (const value of Object.values(user)) expect(result.stdout + result.stderr).not.toContain(value);
    // Named in the opening lines, never with their values (a proxy URL may carry credentials).
    const opening = result.stdout.split("\n").find((line) => line.startsWith("  network: ")) ?? "";
    const named = /^ {2}network: the steps get this machine's (.+); nothing else of its environment$/.exec(
      opening,
    );
    expect(named?.[1]?.split(", ").sort()).toEqual(Object.keys(network).sort());
    expect(opening).not.toContain("proxy.internal");
  });
});

describe("cwp rehearse --run-shell: a tool's colour, as GitHub shows it", () => {
  // What prettier, jest and eslint print under CI=true: SGR colour, and (from a hostile script)
  // a screen clear and a window title, which must never act.
  const script = String.raw`printf '\033[90mgrey\033[0m plain \033[1;31mbold red\033[0m \033[2Jcleared \033]0;title\007 end\n'`;
  /** The line the step printed (`│ ...`), not its title. */
  const stepLine = (out: string) =>
    out.split(/\r?\n/).find((line) => line.includes("│") && line.includes("plain")) ?? "";

  it("drops the colour where cwp does not write to a terminal, and shows no escape as debris", async () => {
    const machine = await userMachine(job(run(script)));
    const result = await runCli(["rehearse", machine.workflowFile, "--run-shell"], {
      cwd: machine.clone,
      env: { HOME: machine.home },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain("\x1b");
    expect(stepLine(result.stdout)).toMatch(/│ grey plain bold red �\[2Jcleared �\]0;title� end$/);
  });

  it("shows the colour as colour on a terminal, reset at the line's end; a cursor move or a title stays inert; NO_COLOR drops it", async () => {
    const machine = await userMachine(job(run(script)));
    // A real terminal: `script` gives the rehearsal a pseudo-terminal for its output.
    const onTerminal = (env: Record<string, string>) =>
      spawnSync(
        "script",
        ["-qec", 'exec "$CWP_NODE" "$CWP_BIN" rehearse "$CWP_FILE" --run-shell', "/dev/null"],
        {
          cwd: machine.clone,
          encoding: "utf8",
          timeout: 60_000,
          env: {
            ...machineEnv(),
            HOME: machine.home,
            GITHUB_API_URL: "http://127.0.0.1:2",
            TERM: "xterm-256color",
            CWP_NODE: process.execPath,
            CWP_BIN: BIN,
            CWP_FILE: machine.workflowFile,
            ...env,
          },
        },
      );
    const coloured = onTerminal({});
    expect(coloured.status, coloured.stdout).toBe(0);
    const line = stepLine(coloured.stdout);
    expect(line).toContain(
      "\x1b[90mgrey\x1b[0m plain \x1b[1;31mbold red\x1b[0m �[2Jcleared �]0;title� end\x1b[0m",
    );
    expect(coloured.stdout).not.toContain("\x1b[2J");
    expect(coloured.stdout).not.toContain("\x1b]0;");
    const plain = onTerminal({ NO_COLOR: "1" });
    expect(plain.status, plain.stdout).toBe(0);
    expect(plain.stdout).not.toContain("\x1b");
    expect(stepLine(plain.stdout)).toMatch(/│ grey plain bold red �\[2Jcleared �\]0;title� end$/);
  });
});

describe("cwp rehearse --run-shell: a workspace of its own", () => {
  // "Variables reference" (GITHUB_WORKSPACE, HOME, RUNNER_TEMP, RUNNER_TOOL_CACHE):
  // https://docs.github.com/en/actions/reference/workflows-and-actions/variables
  it("runs in a copy of the clone with a HOME of its own: the clone and the home (but cwp's own cache folder) are untouched byte for byte", async () => {
    const machine = await userMachine(
      job(
        run(
          [
            'echo "ws=${{ github.workspace }} env=$GITHUB_WORKSPACE pwd=$(pwd)"',
            'ls "$GITHUB_WORKSPACE"',
            'rm -f "${{ github.workspace }}/notes.txt" "$GITHUB_WORKSPACE/README.md"',
            'rm -rf "$GITHUB_WORKSPACE/.git"',
            "git config --global user.name evil",
            'echo "//registry.npmjs.org/:_authToken=stolen" > ~/.npmrc',
            'echo hello > "$HOME/new-file"',
            'echo "temp=$RUNNER_TEMP tools=$RUNNER_TOOL_CACHE home=$HOME"',
          ].join("\n"),
        ),
      ),
    );
    const clone = await snapshot(machine.clone);
    // cwp's own folder (~/.cache/cwp) holds the runner folders, the tool cache and the caches.
    const cwpOwn = join(machine.home, ".cache/cwp");
    const home = await snapshot(machine.home, cwpOwn);
    const result = await rehearse(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(await snapshot(machine.clone)).toEqual(clone);
    expect(await snapshot(machine.home, cwpOwn)).toEqual(home);
    // github.workspace, $GITHUB_WORKSPACE and the working folder: the same copy.
    const [, ws, env, pwd] = /│ ws=(\S+) env=(\S+) pwd=(\S+)/.exec(result.stdout) ?? [];
    expect(ws).toBe(env);
    expect(pwd).toBe(env);
    expect(ws).not.toBe(machine.clone);
    // The copy as a checkout plus what is not committed yet: notes.txt, never ignored.txt.
    expect(result.stdout).toMatch(/│ notes\.txt/);
    expect(result.stdout).toMatch(/│ README\.md/);
    expect(result.stdout).not.toMatch(/│ ignored\.txt/);
    const [, temp, tools, scratchHome] = /│ temp=(\S+) tools=(\S+) home=(\S+)/.exec(result.stdout) ?? [];
    // The runner's folders, the tool cache among them, are cwp's own, which outlive the rehearsal
    // as a runner's do (the user's cache folder, ~/.cache/cwp), never the home itself.
    const slot = join(cwpOwn, "runners/local/rehearsal/1");
    expect([temp, scratchHome]).toEqual([join(slot, "work/_temp"), join(slot, "home")]);
    expect(tools).toBe(join(cwpOwn, "tool-cache"));
    // What the steps wrote stays where the rehearsal says, for the user to look at.
    expect(await readFile(join(scratchHome ?? "", "new-file"), "utf8")).toBe("hello\n");
  });

  it("leaves no script holding a secret behind", async () => {
    const machine = await userMachine(
      job(
        run(
          'echo "deploying with $TOKEN" > /dev/null',
          "        env:\n          TOKEN: ${{ secrets.DEPLOY_TOKEN }}\n",
        ),
      ),
    );
    const result = await rehearse(machine, ["--secret", "DEPLOY_TOKEN"], {
      DEPLOY_TOKEN: "cwp_secret_in_a_script_0123",
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const folder = /files the steps write go to (\S+)/.exec(result.stdout)?.[1] ?? "";
    expect((await stat(folder)).isDirectory()).toBe(true);
    const files = await snapshot(folder);
    expect(
      Object.entries(files).filter(([, bytes]) =>
        Buffer.from(bytes, "base64").toString("utf8").includes("cwp_secret_in_a_script_0123"),
      ),
    ).toEqual([]);
  });
});

describe("cwp rehearse --run-shell: masked as the runner masks", () => {
  // "Using secrets in GitHub Actions" (secrets are redacted from logs, a multi-line secret line by
  // line; encodings): https://docs.github.com/en/actions/security-for-github-actions/security-guides/using-secrets-in-github-actions
  // "Workflow commands": add-mask, stop-commands:
  // https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands
  it("masks a multi-line secret whole and line by line, its Base64, and what ::add-mask:: registers, never showing the command", async () => {
    const pem = "-----BEGIN KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX\n-----END KEY-----";
    const machine = await userMachine(
      job(
        run(
          [
            'echo "$KEY"',
            'printf %s "$KEY" | base64 -w0; echo',
            'printf "prefix-%s" "$KEY" | base64 -w0; echo',
            'VALUE="derived-$(echo cwp_masked_later_77)"',
            'echo "::add-mask::$VALUE"',
            'echo "the value is $VALUE"',
            'echo "::stop-commands::pause123"',
            'echo "::add-mask::shown-while-stopped"',
            'echo "::pause123::"',
            'echo "after shown-while-stopped"',
          ].join("\n"),
          "        env:\n          KEY: ${{ secrets.PEM }}\n",
        ),
      ),
    );
    const result = await rehearse(machine, ["--secret", "PEM"], { PEM: pem });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    for (const line of pem.split("\n")) expect(result.stdout).not.toContain(line);
    expect(result.stdout).not.toContain(Buffer.from(pem).toString("base64").slice(0, 40));
    expect(result.stdout).not.toContain(Buffer.from(`prefix-${pem}`).toString("base64").slice(12, 52));
    expect(result.stdout).not.toContain("cwp_masked_later_77");
    expect(result.stdout).not.toContain("::add-mask::derived");
    expect(result.stdout).toContain("the value is ***");
    // While commands are stopped, ::add-mask:: is text: shown, and nothing is masked by it.
    expect(result.stdout).toContain("::add-mask::shown-while-stopped");
    expect(result.stdout).toContain("after shown-while-stopped");
    // The runner prints the stop command's line and its token's, the token masked where longer
    // than 6 characters (ActionCommandManager.cs, TryProcessCommand: SecretMasker.AddValue, then
    // context.Output(input) on pausing and on resuming; google-ml-infra/runner @0e8eb5a9).
    expect(result.stdout).toContain("::stop-commands::***");
    expect(result.stdout).toContain("::***::");
    expect(result.stdout).not.toContain("pause123");
  });
});

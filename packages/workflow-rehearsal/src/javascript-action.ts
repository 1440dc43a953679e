import { defaultVariables } from "./contexts.js";
import { condition, type Scope } from "./expressions.js";
import type { LocalAction } from "./local-actions.js";
import type { LocalResult, StepRecord, StepResult, StepsRun } from "./records.js";
import { prependPath } from "./runner/env-files.js";

/**
 * A local JavaScript action, run with Node as the runner runs it (`node <file>` in the workspace):
 * its inputs as INPUT_<NAME> (uppercase, spaces as _), `runs.main`, then `runs.post` after the
 * job's steps where `post-if` holds (default always(), read with the job's status then), with what
 * main saved (GITHUB_STATE, save-state) as STATE_<name>; a post that fails fails the job, as any
 * of its steps (StepsRunner runs post steps in its one loop). Its `runs.pre` is never run (see
 * `LocalAction`). Its outputs are what main wrote to GITHUB_OUTPUT. Only under --run-shell: it runs code of the repository's, as a `run:` step does.
 * What the runner warns of is its caller's (the step's inputs, `using:`).
 */
export async function runJavaScriptAction<R extends StepResult>(
  run: StepsRun<R>,
  action: Extract<LocalAction, { kind: "node" }>,
  label: string,
  inputs: Record<string, string>,
  scope: Scope,
): Promise<Omit<LocalResult, "warnings">> {
  const runScript = run.options.runScript;
  if (!runScript)
    return {
      code: 0,
      outputs: {},
      env: {},
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
  const node = (file: string, name: string, more: Record<string, string> = {}) =>
    runScript({
      name,
      script: "",
      javascriptFile: file,
      env: { ...env, ...more },
      path: [...run.path],
      variables: defaultVariables(github, run.contexts.runner as Record<string, unknown>),
      timeoutMs: Math.max(0, run.deadline - Date.now()),
    });
  const main = await node(action.main, label);
  prependPath(run.path, main.path);
  run.onEnv?.(main.env);
  const { post } = action;
  if (post)
    run.posts.push(async (status) => {
      if (!condition(post.if, { ...scope, contexts: { ...scope.contexts, github }, status })) return true;
      const state = Object.fromEntries(Object.entries(main.state ?? {}).map(([k, v]) => [`STATE_${k}`, v]));
      const record: StepRecord<R> = { name: `Post ${label}`, kind: "script" };
      run.options.onStepStart?.(record);
      record.script = await node(post.file, record.name, state);
      run.end(record);
      return record.script.code === 0;
    });
  return { code: main.code, outputs: main.outputs, env: main.env };
}

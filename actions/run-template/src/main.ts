import { checkRequest, defineAction, OUTPUT, objectInput, resourceIdInput, runAction } from "@cwp/action-kit";
import { deployments } from "@cwp/action-kit/github";
import { runTemplateBody, type TemplateRun, templateRunConclusion } from "@cwp/client";

// A release gate: the step passes only when the template run concludes `success`.

export const definition = defineAction({
  name: "run-template",
  inputs: {
    "template-id": resourceIdInput(),
    arguments: objectInput(),
  },
  outputs: { "run-id": OUTPUT.id, status: OUTPUT.status, concluded: OUTPUT.flag },
  async start({ config, client, startOptions }) {
    const templateId = config["template-id"];
    const body = checkRequest(runTemplateBody, { arguments: config.arguments }, { arguments: "arguments" });
    const started = await client.templates.run(templateId, body, startOptions);
    return {
      title: `run ${started.id} of template ${templateId}`,
      initial: started,
      rows: [
        ["Template", templateId],
        ["Run", started.id],
        ["Arguments", Object.keys(config.arguments).join(", ") || "(none)"],
      ],
      outputs: (r: TemplateRun | undefined) => ({
        "run-id": started.id,
        status: r?.status,
        concluded: r?.concluded,
      }),
      wait: (options) => client.templates.waitForRun(templateId, started.id, options),
      conclude: templateRunConclusion,
      // The platform's reason for how the run ended, where it gives one (an argument missing).
      message: (r: TemplateRun) => r.message ?? undefined,
      abort: async (options) => {
        await client.templates.abortRun(templateId, started.id, options);
      },
      read: (options) => client.templates.getRun(templateId, started.id, options),
    };
  },
});

export const run = () => runAction(definition, deployments);

/** `cwp rehearse`'s flags as Commander reads them (command.ts), which the rehearsal takes (rehearsal.ts). */
export interface Flags {
  job?: string;
  event: string;
  eventPayload?: string;
  input?: Record<string, string>;
  secret?: Record<string, string>;
  secretFile?: string;
  var?: Record<string, string>;
  world?: string;
  apiUrl?: string;
  githubApiUrl?: string;
  toolCache?: string;
  cache: boolean;
  speed: string;
  ref?: string;
  sha?: string;
  runShell?: boolean;
  json?: boolean;
  jobs?: string;
  jobLines?: string;
}

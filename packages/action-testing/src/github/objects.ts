// What the stand-in keeps, and the objects GitHub answers with for it: every field the
// description's schema requires, so each answer validates as GitHub's would.

/** Who wrote something, as GitHub answers it. */
export interface Author {
  login: string;
  type: "Bot" | "User";
}

export interface Comment {
  id: number;
  issue: number;
  body: string;
  user: Author;
}

export interface Issue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  user: Author;
}

export type DeploymentState =
  | "error"
  | "failure"
  | "inactive"
  | "in_progress"
  | "queued"
  | "pending"
  | "success";

export interface DeploymentStatus {
  id: number;
  state: DeploymentState;
  description: string;
  logUrl: string;
  environmentUrl: string;
  /** As sent; GitHub's default is true. */
  autoInactive?: boolean;
  /** Set by GitHub itself (auto_inactive of a later deployment), not by a request. */
  byGitHub?: true;
}

export interface Deployment {
  id: number;
  sha: string;
  ref: string;
  task: string;
  environment: string;
  description: string | null;
  production: boolean;
  transient: boolean;
  payload: unknown;
  /** Oldest first. */
  statuses: DeploymentStatus[];
}

/** A deployment's state now: its latest status's, `pending` before any. */
export const latestState = (d: Deployment): DeploymentState => d.statuses.at(-1)?.state ?? "pending";

const CREATED = "2026-11-25T10:00:00Z";
let userIds = 1;
const ids = new Map<string, number>();

/** GitHub's simple-user. */
export function userObject(author: Author, api: string) {
  const id = ids.get(author.login) ?? userIds++;
  ids.set(author.login, id);
  const url = `${api}/users/${encodeURIComponent(author.login)}`;
  return {
    login: author.login,
    id,
    node_id: `U_${id}`,
    avatar_url: `https://avatars.example/u/${id}`,
    gravatar_id: "",
    url,
    html_url: `https://github.example/${encodeURIComponent(author.login)}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: author.type,
    site_admin: false,
  };
}

/** GitHub's public-user: what `/user` answers a person's token (a fine-grained or classic PAT). */
export function publicUserObject(author: Author, api: string) {
  return {
    ...userObject(author, api),
    name: null,
    company: null,
    blog: "",
    location: null,
    email: null,
    hireable: null,
    bio: null,
    public_repos: 0,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: CREATED,
    updated_at: CREATED,
  };
}

export function commentObject(c: Comment, repoApi: string, api: string) {
  return {
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${repoApi}/issues/comments/${c.id}`,
    html_url: `https://github.example/acme/shop/issues/${c.issue}#issuecomment-${c.id}`,
    issue_url: `${repoApi}/issues/${c.issue}`,
    body: c.body,
    user: userObject(c.user, api),
    author_association: "NONE",
    created_at: CREATED,
    updated_at: CREATED,
  };
}

export function issueObject(i: Issue, repoApi: string, api: string) {
  const url = `${repoApi}/issues/${i.number}`;
  return {
    id: i.number,
    node_id: `I_${i.number}`,
    url,
    repository_url: repoApi,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `https://github.example/acme/shop/issues/${i.number}`,
    number: i.number,
    state: "open",
    title: i.title,
    body: i.body,
    user: userObject(i.user, api),
    labels: i.labels,
    assignee: null,
    milestone: null,
    locked: false,
    comments: 0,
    closed_at: null,
    created_at: CREATED,
    updated_at: CREATED,
  };
}

export function deploymentObject(d: Deployment, repoApi: string, creator: Author, api: string) {
  const url = `${repoApi}/deployments/${d.id}`;
  return {
    url,
    id: d.id,
    node_id: `DE_${d.id}`,
    sha: d.sha,
    ref: d.ref,
    task: d.task,
    payload: d.payload,
    original_environment: d.environment,
    environment: d.environment,
    description: d.description,
    creator: userObject(creator, api),
    created_at: CREATED,
    updated_at: CREATED,
    statuses_url: `${url}/statuses`,
    repository_url: repoApi,
    transient_environment: d.transient,
    production_environment: d.production,
  };
}

export function statusObject(
  s: DeploymentStatus,
  d: Deployment,
  repoApi: string,
  creator: Author,
  api: string,
) {
  const deploymentUrl = `${repoApi}/deployments/${d.id}`;
  return {
    url: `${deploymentUrl}/statuses/${s.id}`,
    id: s.id,
    node_id: `DES_${s.id}`,
    state: s.state,
    creator: userObject(creator, api),
    description: s.description,
    environment: d.environment,
    target_url: s.logUrl,
    log_url: s.logUrl,
    environment_url: s.environmentUrl,
    created_at: CREATED,
    updated_at: CREATED,
    deployment_url: deploymentUrl,
    repository_url: repoApi,
  };
}

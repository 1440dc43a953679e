import type { Author, Comment, Deployment, Issue } from "./objects.js";

// What a route of the stand-in is given and gives back.

export interface StandInState {
  comments: Comment[];
  issues: Issue[];
  deployments: Deployment[];
  /** Branch heads of acme/shop, for a deployment of a branch name. */
  branches: Record<string, string>;
}

export interface Request {
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON body, already checked against GitHub's schema.
  body: any;
}

export interface Context {
  state: StandInState;
  /** The API's root (`http://127.0.0.1:port`) and acme/shop's (`.../repos/acme/shop`). */
  api: string;
  repoApi: string;
  /** Who the token acts as (`NOBODY` without one: only the anonymous routes answer it). */
  actor: Author;
  /** An installation token (the workflow's, or a GitHub App's): it may not read `/user`. */
  installation: boolean;
  /** A token the stand-in takes was given (a request without one reads public repositories only). */
  authorized: boolean;
  nextId(): number;
  /** One page of `items` as GitHub pages a list (`per_page`, `page`, a `Link` header). */
  page(items: unknown[]): Answer;
}

export interface Answer {
  status: number;
  body?: unknown;
  /** An answer in a media type of its own (the SHA as text), instead of JSON. */
  text?: { type: string; body: string };
  headers?: Record<string, string>;
}

export type Route = (request: Request, context: Context) => Answer;

export const DOCS = "https://docs.github.com/rest";

/**
 * A piece of remote work as a list of timed steps. Its state at any moment is the last step whose
 * time has come, so the virtual clock alone moves work forward: no timers, and advancing the clock
 * by an hour concludes everything that would have concluded in that hour.
 */
export interface Step<S> {
  /** Virtual time in milliseconds. */
  at: number;
  state: S;
  /** The notification event key this step sends (spec section 6), if any. */
  event?: string;
}

export class Timeline<S> {
  #steps: Step<S>[];
  /** How many steps have had their event sent. */
  sent = 0;

  constructor(steps: Step<S>[]) {
    if (steps.length === 0) throw new Error("a timeline needs a first step");
    this.#steps = [...steps].sort((a, b) => a.at - b.at);
  }

  get steps(): readonly Step<S>[] {
    return this.#steps;
  }

  stepAt(now: number): Step<S> {
    let current = this.#steps[0] as Step<S>;
    for (const step of this.#steps) if (step.at <= now) current = step;
    return current;
  }

  at(now: number): S {
    return this.stepAt(now).state;
  }

  /** The last step: where the work ends if nothing interrupts it. */
  get last(): Step<S> {
    return this.#steps[this.#steps.length - 1] as Step<S>;
  }

  /** Replaces everything after `now` with `steps` (an abort, a new operation on a resource). */
  rewrite(now: number, steps: Step<S>[]): void {
    this.#steps = [...this.#steps.filter((s) => s.at <= now), ...steps].sort((a, b) => a.at - b.at);
    this.sent = Math.min(this.sent, this.#steps.filter((s) => s.at <= now).length);
  }

  /** Steps whose time has come and whose event was not sent yet; marks them sent. */
  takeDue(now: number): Step<S>[] {
    const due: Step<S>[] = [];
    while (this.sent < this.#steps.length && (this.#steps[this.sent] as Step<S>).at <= now) {
      due.push(this.#steps[this.sent] as Step<S>);
      this.sent += 1;
    }
    return due;
  }
}

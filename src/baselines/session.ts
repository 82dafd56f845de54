/** What a reference purple agent says in one turn. */
export type PurpleAction =
  | { readonly kind: "tool"; readonly tool: string; readonly args: Readonly<Record<string, unknown>> }
  | { readonly kind: "answer"; readonly answer: string };

/** What the green agent sent back: the DataPart of its observation message. */
export type Observation = Record<string, unknown>;

/**
 * Lets a strategy be written as a straight script (`await tools.sql(...)`) although each of
 * its steps is a separate A2A request: the strategy's next action answers the current
 * request, and the next request in the same context resumes the strategy.
 */
export class Session {
  private actions: PurpleAction[] = [];
  private actionWaiters: ((action: PurpleAction) => void)[] = [];
  private observationWaiter: ((observation: Observation) => void) | undefined;
  lastActive = Date.now();

  /** Called by the strategy: say `action`, then wait for the green agent's reply. */
  act(action: PurpleAction): Promise<Observation> {
    this.push(action);
    return new Promise((resolve) => {
      this.observationWaiter = resolve;
    });
  }

  /** Called by the strategy at the end. */
  finish(answer: string): void {
    this.push({ kind: "answer", answer });
  }

  /** Called by the server for each incoming message after the first. */
  deliver(observation: Observation): void {
    this.lastActive = Date.now();
    const waiter = this.observationWaiter;
    this.observationWaiter = undefined;
    waiter?.(observation);
  }

  /** Called by the server: the action that answers the current request. */
  nextAction(): Promise<PurpleAction> {
    const queued = this.actions.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => this.actionWaiters.push(resolve));
  }

  private push(action: PurpleAction): void {
    const waiter = this.actionWaiters.shift();
    if (waiter) waiter(action);
    else this.actions.push(action);
  }
}

// Who is here: whether a person answers at an interactive prompt in this run, the only one who
// may grant trust (approve a sell wording, confirm a token's facts, pin a treasury). The command
// layer, the flows and the MCP server read this one rule; nothing else decides.

/** What decides presence in a run. */
export interface RunFacts {
  /** --yes: nothing is asked. */
  yes: boolean;
  /** --dry-run: nothing is signed or pinned. */
  dryRun: boolean;
  /** --json: nothing is asked. */
  json: boolean;
  /** stdin and stderr are a terminal a person can answer at. */
  interactive: boolean;
  /** `trader mcp` runs the command: an agent's client answers, whoever it is, so no person is known to be here. */
  agent: boolean;
}

export interface Presence {
  /** A person answers a prompt in this run: only then is trust granted. */
  mayGrantTrust: boolean;
  /** Why not, for the refusal ("--yes asks nothing"); null when a person is here. */
  why: string | null;
}

/** Whether a person is here to grant trust in this run, and why not. */
export function presence(run: RunFacts): Presence {
  const why = run.agent
    ? 'an agent runs this trade (trader mcp): its client may answer, but only a person at a terminal grants trust'
    : run.dryRun
      ? 'a dry run pins nothing'
      : run.yes
        ? '--yes asks no one'
        : run.json
          ? '--json asks no one'
          : !run.interactive
            ? 'no terminal to ask at'
            : null;
  return { mayGrantTrust: why === null, why };
}

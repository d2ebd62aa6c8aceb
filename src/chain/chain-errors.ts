// The two ways a chain check ends a command with exit 3: the chain could not be read where the
// user asked for verification, or the chain contradicts what the service said.
import { ExitCode, TraderError } from '../errors.js';

/** The chain could not be read and the command needed it (balance, --verify): exit 3. */
export class ChainUnreachableError extends TraderError {
  readonly exitCode = ExitCode.service;
  constructor(message: string, hints: string[] = []) {
    super(message, 'CHAIN_UNREACHABLE', hints);
  }
}

/** The chain contradicts the service (a payout that is not there, pays less, pays someone else): exit 3. */
export class ChainContradictionError extends TraderError {
  readonly exitCode = ExitCode.service;
  constructor(message: string, hints: string[] = []) {
    super(message, 'CHAIN_CONTRADICTS_SERVICE', hints);
  }
}

/** A verification that did not complete under --verify (a signature not found, a deposit not yet landed): exit 3. */
export class ChainUnverifiedError extends TraderError {
  readonly exitCode = ExitCode.service;
  constructor(message: string, hints: string[] = []) {
    super(message, 'CHAIN_NOT_VERIFIED', hints);
  }
}

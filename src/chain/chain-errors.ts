// The two ways a chain check ends a command with exit 3: the chain could not be read where the
// user asked for verification, or the chain contradicts what the service said.
import { ExitCode, TraderError } from '../domain/errors.js';

/** The chain could not be read and the command needed it (balance, --verify): exit 3. */
export class ChainUnreachableError extends TraderError {
  readonly exitCode = ExitCode.service;
  // An RPC that cannot be reached is the network's; asking again may reach it.
  override readonly routing = { category: 'network', retryable: true } as const;
  constructor(message: string, hints: string[] = []) {
    super(message, 'CHAIN_UNREACHABLE', hints);
  }
}

/** The chain contradicts the service (a payout that is not there, pays less, pays someone else): exit 3. */
export class ChainContradictionError extends TraderError {
  readonly exitCode = ExitCode.service;
  // What the chain shows against the service is the service's failing.
  override readonly routing = { category: 'service', retryable: false } as const;
  constructor(message: string, hints: string[] = []) {
    super(message, 'CHAIN_CONTRADICTS_SERVICE', hints);
  }
}

/** A verification that did not complete under --verify (a signature not found, a deposit not yet landed): exit 3. */
export class ChainUnverifiedError extends TraderError {
  readonly exitCode = ExitCode.service;
  override readonly routing = { category: 'service', retryable: false } as const;
  constructor(message: string, hints: string[] = []) {
    super(message, 'CHAIN_NOT_VERIFIED', hints);
  }
}

// What `trader mcp` was started with: read by the command (mcp/command.ts), the server and its descriptions.

export interface McpOptions {
  /** Offer buy, sell and cancel (only with the profile's limits set). */
  allowTrading: boolean;
  /** Trade tools proceed without asking the person through the client. */
  confirm: boolean;
}

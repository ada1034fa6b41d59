import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

// JSON-RPC 2.0's codes for a line that is not JSON, and for JSON that is not a JSON-RPC message.
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * The answer JSON-RPC requires to a line the stdio transport could not read (id null: none could be read),
 * or undefined when the transport failed for another reason (stdin closed, a write failed).
 */
export function unreadableLineAnswer(error: Error): JSONRPCMessage | undefined {
  if (error instanceof SyntaxError) return errorAnswer(PARSE_ERROR, `Parse error: the line is not JSON (${error.message})`);
  if (error.name === "ZodError") return errorAnswer(INVALID_REQUEST, "Invalid Request: the line is JSON but not a JSON-RPC 2.0 message");
  return undefined;
}

function errorAnswer(code: number, message: string): JSONRPCMessage {
  // The SDK's message type has no id-null error; the JSON-RPC spec requires exactly that here.
  return { jsonrpc: "2.0", id: null, error: { code, message } } as unknown as JSONRPCMessage;
}

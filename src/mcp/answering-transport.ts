import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { unreadableLineAnswer } from "./unreadable-line.js";

type RequestId = string | number;

/**
 * Wraps a transport to know which requests still await an answer, so the server can finish them after the
 * client closes its input (`cat requests | router mcp` writes everything, then closes stdin at once), and to
 * answer a line it could not read with JSON-RPC's parse error instead of silence.
 */
export class AnsweringTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly open = new Set<RequestId>();
  private idle: (() => void) | undefined;
  private readonly closing: Promise<void>;
  private markClosed: () => void = () => {};

  constructor(private readonly inner: Transport) {
    this.closing = new Promise((resolve) => (this.markClosed = resolve));
  }

  start(): Promise<void> {
    this.inner.onclose = () => {
      this.markClosed();
      this.onclose?.();
    };
    this.inner.onerror = (error) => {
      const answer = unreadableLineAnswer(error);
      if (answer) void this.inner.send(answer).catch((failure: Error) => this.onerror?.(failure));
      this.onerror?.(error);
    };
    this.inner.onmessage = (message, extra) => {
      if ("method" in message && "id" in message) this.open.add(message.id);
      this.onmessage?.(message, extra);
    };
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    await this.inner.send(message, options);
    if (!("method" in message) && "id" in message && message.id !== undefined && this.open.delete(message.id) && this.open.size === 0) this.idle?.();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Resolves when the transport has closed, for whatever reason. */
  closed(): Promise<void> {
    return this.closing;
  }

  /** Resolves when every request received so far has been answered. */
  answered(): Promise<void> {
    if (this.open.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.idle = resolve));
  }
}

import { isIP } from "node:net";

/** An address of this machine's loopback: 127.0.0.0/8, ::1, or a 127.x mapped into IPv6 (how a dual-stack socket reports one). */
export function isLoopbackAddress(address: string): boolean {
  const v4 = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  return (isIP(v4) === 4 && v4.startsWith("127.")) || address === "::1";
}

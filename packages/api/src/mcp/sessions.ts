import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

/** A session idle this long is closed: its client re-initializes on its next request (404). */
export const MCP_SESSION_IDLE_MS = 30 * 60_000;

/** At most this many sessions are kept by one process; a new one closes the longest idle. */
export const MCP_SESSIONS_PER_PROCESS = 1000;

/** One MCP session: its transport and server, what it serves, and who opened it. */
export interface McpSession {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  /** `app:<code>` or `workflow:<id>`: a session answers for one target only. */
  target: string;
  /** Digest of the key (and space header) that opened it: every request must carry the same. */
  keyDigest: string;
  /** The Parley conversation the `ask` tool continues (set by its first answer). */
  conversationId?: string;
  lastUsedAt: number;
}

/**
 * The sessions of one process, in memory. A session lives in the process that initialized it;
 * behind a load balancer without sticky routing another process answers 404 for it and the
 * client initializes again (decision 0034).
 */
export class McpSessionStore {
  private readonly sessions = new Map<string, McpSession>();

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly idleMs = MCP_SESSION_IDLE_MS,
    private readonly cap = MCP_SESSIONS_PER_PROCESS,
  ) {}

  /** The live session of an id (its idle time restarts), or undefined when unknown or expired. */
  get(id: string): McpSession | undefined {
    this.sweep();
    const session = this.sessions.get(id);
    if (session) session.lastUsedAt = this.clock();
    return session;
  }

  /** Keeps a new session, closing the longest idle one when the process holds its cap. */
  add(session: McpSession): void {
    this.sweep();
    while (this.sessions.size >= this.cap) {
      let oldest: McpSession | undefined;
      for (const candidate of this.sessions.values()) if (!oldest || candidate.lastUsedAt < oldest.lastUsedAt) oldest = candidate;
      if (!oldest) break;
      this.close(oldest.id);
    }
    this.sessions.set(session.id, session);
  }

  /** Forgets a session (the client's DELETE, or the transport closed) and closes its server. */
  close(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    // Closing the server closes its transport; failures of a transport already gone do not matter.
    void session.server.close().catch(() => undefined);
  }

  /** How many sessions are open. */
  get size(): number {
    return this.sessions.size;
  }

  private sweep() {
    const before = this.clock() - this.idleMs;
    for (const session of [...this.sessions.values()]) if (session.lastUsedAt < before) this.close(session.id);
  }
}

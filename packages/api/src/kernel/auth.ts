/** Who is calling and in which space. */
export interface Auth {
  userId: string;
  spaceId: string;
  role: "owner" | "admin" | "member";
  via: "session" | "api-key";
  sessionId?: string;
  apiKeyId?: string;
}

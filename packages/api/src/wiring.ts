import { chatEngine } from "./chat/service/engine";
import { deliverStoredMessages } from "./channels/pipeline";
import { plugResponder } from "./conversation/responders";
import { followStoredMessages } from "./inbox/activity";
import { workflowResponder } from "./workflows/responder";
import { plugDatabases } from "./workflows/engine/types";
import { workflowDatabases } from "./databases/service/workflow-port";

/**
 * Connects the sides of a conversation at start-up: the responders plug into the conversation
 * core, the databases into the workflow engine, and the inbox and the channels subscribe to stored messages, so the core and the
 * workflows import none of them. Idempotent (a test process builds many servers). The inbox
 * subscribes first: a session shows a message before its delivery is reported.
 */
export function connectConversation(): void {
  plugResponder("default", chatEngine);
  plugResponder("WORKFLOW", workflowResponder);
  plugDatabases(workflowDatabases);
  followStoredMessages();
  deliverStoredMessages();
}

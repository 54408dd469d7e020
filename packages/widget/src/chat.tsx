/**
 * The chat chunk (`/widget/chat.js`), loaded by the loader on first interaction. Renders the
 * panel into the loader's shadow root and takes over the `Parley` commands.
 */
import { render } from 'preact';
import type { ChatContext, ChatHandle, VisitorIdentity } from './core/protocol';
import { PANEL_CSS } from './ui/styles';
import { Panel } from './ui/panel';

/** Mounts the panel; the loader calls this once and sends later commands to the handle. */
export function mountChat(context: ChatContext): ChatHandle {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(PANEL_CSS);
  context.root.adoptedStyleSheets = [...context.root.adoptedStyleSheets, sheet];
  const container = document.createElement('div');
  context.root.append(container);
  let open = false;
  let language = context.language || navigator.language || 'en';
  let identity: VisitorIdentity | undefined = context.identity;

  const draw = () => {
    try {
      render(<Panel context={context} open={open} language={language} identity={identity} onClose={() => setOpen(false)} />, container);
    } catch (error) {
      console.warn('[parley]', error);
    }
  };
  function setOpen(next: boolean) {
    if (next === open) return;
    open = next;
    context.setOpen(open);
    draw();
    context.emit(open ? 'open' : 'close');
    if (!open) context.bubble?.focus();
  }
  draw();
  context.emit('ready');
  return {
    command(name, args) {
      if (name === 'open') setOpen(true);
      else if (name === 'close') setOpen(false);
      else if (name === 'toggle') setOpen(!open);
      else if (name === 'identify') identity = args[0] as VisitorIdentity;
      else if (name === 'setLanguage') language = String(args[0]);
      else return;
      draw();
    },
  };
}

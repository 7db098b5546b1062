import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useInterruptRenderersWith } from '../../components/host/use-interrupt-renderers-with';
import { ScriptedAgent } from '../helpers/scripted-agent';
import { makeTestCard } from './harness';

const renderers = { 'acme:a': makeTestCard('a') };

/** The hook's element placed by the app, as a page with `renderInChat: false` does. */
function Panel() {
  const element = useInterruptRenderersWith({ renderInChat: false }, { renderers });
  return <aside data-testid="side-panel">{element}</aside>;
}

function InChat() {
  useInterruptRenderersWith({}, { renderers });
  return null;
}

// A Next.js App Router page prerenders client components on the server: every store the hook
// reads must have a server snapshot, or the production build fails on that page.
describe('rendered on a server', () => {
  it.each([
    ['in the chat', InChat],
    ['placed by the app (renderInChat: false)', Panel],
  ])('given the hook %s, when the page renders to a string, should render the chat and no card', (_name, Hook) => {
    const agent = new ScriptedAgent(() => []);
    const html = renderToString(
      <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
        <Hook />
        <CopilotChat threadId="thread-server" />
      </CopilotKitProvider>,
    );
    expect(html).toContain('copilot-chat-textarea');
    expect(html).not.toContain('data-interrupt-id');
  });
});

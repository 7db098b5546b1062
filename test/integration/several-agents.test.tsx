import { render } from '@testing-library/react';
import { CopilotKitProvider } from '@copilotkit/react-core/v2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScriptedAgent, runFinished, runStarted } from '../helpers/scripted-agent';
import { Interrupts } from './harness';

// CopilotKit keeps one interrupt element per provider: two agents that both draw their cards in the
// chat would take it from each other (docs/hook.md, "Several agents on one page").
afterEach(() => vi.restoreAllMocks());

const quiet = (agentId: string) => new ScriptedAgent((input) => [runStarted(input), runFinished(input)], { agentId });
const SHARED_SLOT = /The agents "a" and "b" both draw their interrupt cards in the chat under one CopilotKit provider/;

function page(b: { renderInChat?: boolean }, provider = { a: quiet('a'), b: quiet('b') }) {
  return (
    <CopilotKitProvider agents__unsafe_dev_only={provider}>
      <Interrupts agentId="a" />
      <Interrupts agentId="b" {...b} />
    </CopilotKitProvider>
  );
}

describe('several agents under one provider', () => {
  it('given two agents that both draw in the chat, should say once, in the console, what goes wrong and what to do', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const view = render(page({}));
    view.rerender(page({}));
    const warnings = warn.mock.calls.map(([message]) => String(message)).filter((message) => SHARED_SLOT.test(message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('renderInChat: false');
  });

  it('given one of them placing its own element (renderInChat: false), should say nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(page({ renderInChat: false }));
    expect(warn.mock.calls.map(([message]) => String(message)).filter((message) => SHARED_SLOT.test(message))).toEqual([]);
  });
});

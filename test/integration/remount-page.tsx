import type { RunAgentInput } from '@ag-ui/client';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { StrictMode } from 'react';
import type { InterruptRenderersConfig } from '../../hooks/types';
import { runFinished, runStarted, textMessage, type ScriptedAgent, type ScriptStep } from '../helpers/scripted-agent';
import { Interrupts, makeTestCard, sendMessage } from './harness';

/** Three interrupts a set can hold, and a test card for each that answers with its letter. */
export const A = { id: 'int-a', reason: 'acme:a' };
export const B = { id: 'int-b', reason: 'acme:b' };
export const C = { id: 'int-c', reason: 'acme:c' };
export const renderers = { 'acme:a': makeTestCard('a', 'A'), 'acme:b': makeTestCard('b', 'B'), 'acme:c': makeTestCard('c', 'C') };

/** A run that replies `text`. */
export const reply = (input: RunAgentInput, n: number, text: string): ScriptStep[] => [
  runStarted(input),
  ...textMessage(`r${n}`, text),
  runFinished(input),
];

export interface RemountPageProps {
  agent: ScriptedAgent;
  config?: InterruptRenderersConfig;
  /** A new key remounts the component holding the hook (a tab, a route segment). */
  hookKey?: number;
  threadId?: string;
  /** `false` leaves the hook out (unmounted). */
  hook?: boolean;
  strict?: boolean;
}

/** The real provider and chat; the chat stays while the hook's component remounts or leaves. */
export function RemountPage({
  agent,
  config = { resolveDelayMs: 0, renderers },
  hookKey = 0,
  threadId = 'thread-remount',
  hook = true,
  strict = false,
}: RemountPageProps) {
  const page = (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      {hook ? <Interrupts key={hookKey} {...config} /> : null}
      <div style={{ height: 600 }}>
        <CopilotChat threadId={threadId} />
      </div>
    </CopilotKitProvider>
  );
  return strict ? <StrictMode>{page}</StrictMode> : page;
}

/** Asks for two things, answers both cards, and waits until the resume run carrying them started. */
export async function answerBothCards(agent: ScriptedAgent) {
  await sendMessage('Two things');
  fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
  fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
  await waitFor(() => expect(agent.runs).toHaveLength(2));
}

import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ToolApprovalCard } from '../../../components/tool-approval-card/tool-approval-card';
import { fromHitlRequest } from '../../../src/backends/langchain-hitl/request';
import { unwrapInterrupt } from '../../../src/unwrap';

// humanInTheLoopMiddleware writes `<prefix>\n\nTool: <name>\nArgs: <JSON>` when a tool has no
// description of its own: the card shows the tool and its arguments, so its title is the prefix.
const request = (description: string) => ({
  actionRequests: [{ name: 'tag_release', args: { version: 'v2.0.0' }, description }],
  reviewConfigs: [{ actionName: 'tag_release', allowedDecisions: ['approve', 'edit'] }],
});
const cardOf = (description: string) => {
  const read = fromHitlRequest('a'.repeat(32), request(description));
  if (!('interrupts' in read)) throw new Error(read.problem);
  const interrupt = unwrapInterrupt(read.interrupts[0]);
  render(
    <ToolApprovalCard interrupt={interrupt as never} status="pending" readOnly={false} locale="en" resolve={vi.fn()} cancel={vi.fn()} />,
  );
  return screen.getByTestId('approval-card');
};

describe('a humanInTheLoopMiddleware card title', () => {
  it('given the description the middleware generated, shows its prefix, not the raw JSON of the arguments', () => {
    const card = cardOf(`Tool execution requires approval\n\nTool: tag_release\nArgs: ${JSON.stringify({ version: 'v2.0.0' }, null, 2)}`);
    expect(card.querySelector('.cki-card__title')?.textContent).toBe('Tool execution requires approval');
    expect(card.querySelector('.cki-card__title')?.textContent).not.toContain('{');
  });

  it("given the app's own description, shows it as it is", () => {
    const card = cardOf('Tag this release?');
    expect(card.querySelector('.cki-card__title')?.textContent).toBe('Tag this release?');
  });
});

// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  APPROVAL_STATUS,
  APPROVAL_STATUS_MAP,
  APPROVAL_STATUS_MAP_EN,
  InterruptReason,
  isTerminalApprovalStatus,
} from '../../../src/protocol';

describe('protocol constants', () => {
  it('uses the protocol reason strings', () => {
    expect(InterruptReason.AIDevToolApproval).toBe('aidev:tool_approval');
    expect(InterruptReason.UserQuestion).toBe('aidev:user_question');
  });

  it('labels every approval status in zh-CN exactly as the protocol and in English', () => {
    expect(APPROVAL_STATUS_MAP).toEqual({
      abandoned: '已废弃',
      approved: '已通过',
      cancelled: '已取消',
      draft: '待审批',
      expired: '已过期',
      pending: '待审批',
      rejected: '已拒绝',
      revoked: '已撤销',
    });
    for (const status of Object.values(APPROVAL_STATUS)) {
      expect(APPROVAL_STATUS_MAP_EN[status]).toMatch(/\S/);
    }
  });

  it('treats every status but pending and draft as terminal', () => {
    const terminal = Object.values(APPROVAL_STATUS).filter(isTerminalApprovalStatus);
    expect(terminal.sort()).toEqual(['abandoned', 'approved', 'cancelled', 'expired', 'rejected', 'revoked']);
    expect(isTerminalApprovalStatus('nonsense')).toBe(false);
    expect(isTerminalApprovalStatus(undefined)).toBe(false);
  });
});

import { unwrapInterrupts } from '../../../src/unwrap';

const standard = (id: string) => ({ id, reason: 'aidev:user_question', metadata: { questions: [] } });

describe('unwrapInterrupts', () => {
  it('given render props whose interrupts cannot be read, should not throw and should say why on one card', () => {
    const props = {
      get interrupts(): unknown[] {
        throw new Error('hostile getter');
      },
    };
    const read = unwrapInterrupts(props);
    expect(read).toHaveLength(1);
    expect(read[0].problem).toBe('The interrupts could not be read (hostile getter).');
  });

  it('given a list whose second item throws when read, should keep the first and add one card that says why', () => {
    const list = new Proxy([standard('a'), standard('b')], {
      get(target, key, receiver) {
        if (key === '1') throw new Error('no access');
        return Reflect.get(target, key, receiver);
      },
    });
    const read = unwrapInterrupts({ interrupts: list });
    expect(read.map((i) => i.id)).toEqual(['a', 'invalid-unreadable-interrupts-1']);
    expect(read[1].problem).toContain('no access');
  });

  it('given more interrupts than the limit, should show the limit and one card naming how many there were', () => {
    const read = unwrapInterrupts({ interrupts: Array.from({ length: 1_001 }, (_, i) => standard(`i${i}`)) });
    expect(read).toHaveLength(1_001);
    expect(read.at(-1)!.problem).toBe('Only 1000 of 1001 interrupts are shown.');
  });
});

/**
 * Plain AG-UI: a standard interrupt of any other agent. One whose Mastra or LangGraph payload names
 * its own reason is lifted (see `liftInterrupt`); its id stays the agent's, and so does its answer
 * (AG-UI's own `resume`). Last in the list: it reads any standard interrupt.
 */
import { liftInterrupt } from '../../wire/shapes';
import type { InterruptBackend } from '../types';

export const agUiBackend: InterruptBackend = {
  name: 'AG-UI',
  idPrefixes: [],
  fromInterrupt: (interrupt) => [liftInterrupt(interrupt)],
};

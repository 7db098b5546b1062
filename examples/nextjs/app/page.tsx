'use client';

import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import '@copilotkit/react-core/v2/styles.css';
import { useInterruptRenderers } from 'copilotkit-interrupts';
import { TimePickerCard } from 'copilotkit-interrupts/cards';
import 'copilotkit-interrupts/styles.css';
import { PICK_TIME_REASON } from '../lib/reasons';

// Defined once, outside the component: a new object on every render would rebuild the picker.
const renderers = { [PICK_TIME_REASON]: TimePickerCard };

function Chat() {
  // One hook per agent: the built-in cards by reason, plus this app's own reason.
  useInterruptRenderers({ renderers });
  return <CopilotChat />;
}

export default function Page() {
  return (
    <CopilotKitProvider runtimeUrl="/api/copilotkit" showDevConsole={false}>
      <main style={{ height: '100vh', maxWidth: 760, margin: '0 auto' }}>
        <Chat />
      </main>
    </CopilotKitProvider>
  );
}

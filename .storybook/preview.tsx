import type { Decorator, Preview } from '@storybook/react-vite';
import '../components/styles.css';
import { a11yConfig } from './a11y-rules';

/** `parameters.theme: 'dark'` renders the story on a dark surface with the cards' dark palette. */
const withTheme: Decorator = (Story, context) => {
  // The cards inherit the host's font, as they do inside a chat; give the stories an app-like one.
  const font = { fontFamily: 'system-ui, -apple-system, "Segoe UI", sans-serif' };
  if (context.parameters.theme !== 'dark') {
    return (
      <div style={font}>
        <Story />
      </div>
    );
  }
  return (
    <div className="cki-dark" style={{ ...font, background: '#0d1117', color: '#e6edf3', padding: 16 }}>
      <Story />
    </div>
  );
};

const preview: Preview = {
  decorators: [withTheme],
  parameters: {
    layout: 'padded',
    // 'error': an axe violation fails the story's test (portable stories and browser mode alike).
    a11y: { test: 'error', config: a11yConfig },
  },
};

export default preview;

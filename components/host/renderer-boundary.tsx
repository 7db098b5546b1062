import { Component, type ErrorInfo, type ReactNode } from 'react';
import { LOG } from '../../src/log';

interface Props {
  /** Names the renderer in the console message. */
  name: string;
  /** What to show instead once the renderer has thrown. */
  fallback: (error: Error) => ReactNode;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * Keeps a throwing renderer from taking the chat down: the interrupt is shown by the fallback
 * card instead (with the error as its `problem`), and the rest of the transcript keeps working.
 */
export class RendererBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(
      `${LOG} The interrupt renderer "${this.props.name}" threw; showing the fallback card instead.`,
      error,
      info.componentStack,
    );
  }

  override render(): ReactNode {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}

export {
  InterruptController,
  type ControlledAgent,
  type ControlledCopilotKit,
  type ControllerSettings,
  type CopilotKitInterruptActions,
} from './interrupt-controller';
export type { CardSnapshot } from './card-snapshot';
export { controllerRegistry } from './controller-registry';
export { afterPaint } from './after-paint';
export { threadChanged, onThreadChanged } from './thread-changes';

// Ships the cards' stylesheet as `copilotkit-interrupts/styles.css`: one plain CSS file, copied
// as-is (no bundler step: it has no imports and must stay readable for apps that theme it).
import { copyFileSync, mkdirSync } from 'node:fs';

mkdirSync(new URL('../dist/', import.meta.url), { recursive: true });
copyFileSync(new URL('../components/styles.css', import.meta.url), new URL('../dist/styles.css', import.meta.url));
console.log('copied components/styles.css -> dist/styles.css');

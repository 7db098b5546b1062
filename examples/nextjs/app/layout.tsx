import type { ReactNode } from 'react';

export const metadata = { title: 'copilotkit-interrupts on Next.js' };

// A server component: it only lays out the page. Everything that touches CopilotKit or the
// interrupt cards lives in the client page.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ margin: 0 }}>{children}</body>
    </html>
  );
}

// Side-effect CSS imports (the library's stylesheet, CopilotKit's) resolve through the bundler.
declare module '*.css';

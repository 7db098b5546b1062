import { useEffect, useId, useState, type FormEvent } from 'react';

/** A demo user, as the server's `/api/demo-user` describes them. */
export interface DemoUserInfo {
  id: string;
  name: string;
  roles: string[];
  /** What they do in the demo ("on call, approves deploys"). */
  about: string;
}

/** Who this browser is, as the demo server says (its cookie), and who else it could be. */
export type DemoUserState =
  | { status: 'loading' }
  /** The server knows the browser: `user` (the first user when it has no cookie yet). */
  | { status: 'known'; user: DemoUserInfo; users: DemoUserInfo[]; cookie: string }
  /** The cookie names no demo user: the server refuses every request until another is picked. */
  | { status: 'unknown'; message: string; users: DemoUserInfo[]; cookie: string }
  /** The server could not be asked: the page goes on without the switcher. */
  | { status: 'unavailable' };

interface DemoUserResponse {
  user?: DemoUserInfo;
  users?: DemoUserInfo[];
  cookie?: string;
  error?: string;
}

/** Asks the demo server who this browser is, once. */
export function useDemoUser(serverUrl: string): DemoUserState {
  const [state, setState] = useState<DemoUserState>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    fetch(`${serverUrl}/api/demo-user`, { credentials: 'include', cache: 'no-store' })
      .then(async (response) => {
        const body = (await response.json()) as DemoUserResponse;
        if (!current) return;
        const users = body.users ?? [];
        const cookie = body.cookie ?? '';
        if (response.ok && body.user) setState({ status: 'known', user: body.user, users, cookie });
        else if (response.status === 401)
          setState({ status: 'unknown', message: body.error ?? 'The demo does not know this user.', users, cookie });
        else setState({ status: 'unavailable' });
      })
      .catch(() => {
        if (current) setState({ status: 'unavailable' });
      });
    return () => {
      current = false;
    };
  }, [serverUrl]);
  return state;
}

/** Becomes `userId` (the cookie, for a year, on this site) and loads the page again as them. */
export function switchDemoUser(cookie: string, userId: string) {
  document.cookie = `${cookie}=${encodeURIComponent(userId)}; path=/; max-age=31536000; samesite=lax`;
  window.location.reload();
}

/**
 * Who you are in the demo, and a switch to another demo user: a labelled select and a button
 * (choosing alone changes nothing, so a keyboard can walk the options; the button reloads the page
 * as the chosen user).
 */
export function DemoUserSwitch({ current, users, cookie }: { current: DemoUserInfo | undefined; users: DemoUserInfo[]; cookie: string }) {
  const id = useId();
  const [chosen, setChosen] = useState(current?.id ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen && chosen !== current?.id) switchDemoUser(cookie, chosen);
  };
  return (
    <form className="demo-user" aria-label="Demo user" onSubmit={submit}>
      <label htmlFor={id}>You are</label>
      <select id={id} value={chosen} aria-describedby={`${id}-about`} onChange={(event) => setChosen(event.target.value)}>
        {current ? null : (
          <option value="" disabled>
            Pick a user
          </option>
        )}
        {users.map((user) => (
          <option key={user.id} value={user.id}>
            {user.name}
          </option>
        ))}
      </select>
      <div className="demo-user-row">
        <span id={`${id}-about`} className="demo-user-about">
          {users.find((user) => user.id === chosen)?.about ?? ''}
        </span>
        <button type="submit" disabled={!chosen || chosen === current?.id}>
          Switch
        </button>
      </div>
    </form>
  );
}

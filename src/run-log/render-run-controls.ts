import { escapeHtml } from './render-run-page.js';

/** What the reader of a running run's page may do there, as Slack's thread offers it. */
export interface RunControls {
  /** The form actions, with the token that proves the form came from this page for this person. */
  stopPath?: string;
  steerPath?: string;
  token?: string;
  /** For a reader by signed link, who is not signed in: where signing in starts. */
  signInPath?: string;
  /** Why this signed-in reader may not act. */
  note?: string;
}

export type DoneAction = 'stop' | 'steer';

const DONE: Record<DoneAction, string> = {
  stop: 'You asked to stop this run. It stops before its next step; the thread says who stopped it.',
  steer: 'Your message is with the running agent: it reads it before its next model call. The thread shows it too.',
};

export function renderControls(controls: RunControls | undefined, done: DoneAction | undefined): string {
  const notice = done ? `<p class="notice" id="action-done">${escapeHtml(DONE[done])}</p>` : '';
  if (!controls) return notice;
  const token = `<input type="hidden" name="token" value="${escapeHtml(controls.token ?? '')}">`;
  const parts = [
    controls.steerPath
      ? `<form method="post" action="${escapeHtml(controls.steerPath)}" class="steer">${token}<label for="steer-text">Message to the running agent (it reads it before its next model call)</label>
<textarea id="steer-text" name="text" rows="3" maxlength="4000" required></textarea><button type="submit" id="steer-run">Send to the agent</button></form>`
      : '',
    controls.stopPath
      ? `<form method="post" action="${escapeHtml(controls.stopPath)}" class="stop">${token}<button type="submit" id="stop-run">Stop this run</button></form>`
      : '',
    controls.signInPath ? `<p><a href="${escapeHtml(controls.signInPath)}" id="sign-in-to-act">Sign in with Slack</a> to stop or steer this run.</p>` : '',
    controls.note ? `<p class="empty">${escapeHtml(controls.note)}</p>` : '',
  ].join('');
  return `${notice}${parts ? `<section id="actions" class="actions">${parts}</section>` : ''}`;
}

// The offline model is a script, not an AI: say so wherever it is in use.
export function OfflineModelNotice() {
  return (
    <p className="offline-notice" data-testid="offline-model-notice" role="note">
      <strong>Offline scripted demo model.</strong> Replies come from <code>scripts/offline-model.mjs</code>, a
      small script on your machine, not from an AI. Ask it to run a <code>`backticked`</code> shell command (it runs
      in the demo's workspace, after you approve), add <code>[slow]</code> for a slow reply you can abort; it
      quotes anything else.
    </p>
  );
}

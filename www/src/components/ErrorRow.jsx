// A turn that failed or was interrupted, or a call of the page that failed.
export function ErrorRow({ text }) {
  return (
    <div className="row error" data-testid="error-row" role="alert">
      {text}
    </div>
  );
}

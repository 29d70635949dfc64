// The conversation's model: listModels() fills it, updateModel() applies a choice.
export function ModelPicker({ models, current, onChange, disabled }) {
  const handles = models.map((m) => m.handle);
  const value = handles.includes(current) ? current : "";
  return (
    <label className="model-picker">
      Model
      <select value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled || models.length === 0} data-testid="model-picker">
        {value === "" ? <option value="">{current ?? "—"}</option> : null}
        {models.map((entry) => (
          <option key={entry.handle} value={entry.handle}>
            {entry.label || entry.handle}
          </option>
        ))}
      </select>
    </label>
  );
}

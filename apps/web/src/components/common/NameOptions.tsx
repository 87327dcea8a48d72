/** One `<option>` per name, the name as both its value and its text (function names, profiles, error names). */
export function NameOptions({ names }: { names: readonly string[] }) {
  return names.map((name) => (
    <option key={name} value={name}>
      {name}
    </option>
  ));
}

/** The two buttons of a confirmation: do the destructive thing (styled by `dangerClass`), or cancel. */
export function ConfirmButtons({
  confirm,
  cancel,
  dangerClass,
  testId,
  onConfirm,
  onCancel,
}: {
  confirm: string;
  cancel: string;
  dangerClass: string;
  testId: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <>
      <button type="button" className={dangerClass} onClick={onConfirm} data-testid={testId}>
        {confirm}
      </button>
      <button type="button" onClick={onCancel}>
        {cancel}
      </button>
    </>
  );
}

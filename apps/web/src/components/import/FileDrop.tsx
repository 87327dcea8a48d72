import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFileActions } from '../../store/ImportContext.tsx';

function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes('Files') ?? false;
}

/** A file dragged anywhere onto the page opens; while it hovers, the page says what dropping does. */
export function FileDrop() {
  const { t } = useTranslation();
  const files = useFileActions();
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth += 1;
      setOver(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overPage = (event: DragEvent) => {
      if (carriesFiles(event)) event.preventDefault();
    };
    const drop = (event: DragEvent) => {
      const file = event.dataTransfer?.files[0];
      if (file === undefined) return;
      event.preventDefault();
      depth = 0;
      setOver(false);
      files.open(file);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overPage);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overPage);
      window.removeEventListener('drop', drop);
    };
  }, [files]);
  if (!over) return null;
  return (
    <div className="file-drop" data-testid="file-drop">
      <p>{t('fileImport.dropHere')}</p>
    </div>
  );
}

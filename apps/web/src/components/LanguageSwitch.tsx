import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language, rememberLanguage } from '../i18n/setup.ts';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const change = (language: Language) => {
    void i18n.changeLanguage(language);
    rememberLanguage(window.localStorage, language);
    document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  };
  return (
    <label className="language-switch">
      <span className="visually-hidden">{t('common.language.label')}</span>
      <select
        value={i18n.language}
        onChange={(event) => {
          const value = LANGUAGES.find((language) => language === event.target.value);
          if (value !== undefined) change(value);
        }}
        aria-label={t('common.language.label')}
        data-testid="language"
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language}>
            {t(`common.language.${language}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

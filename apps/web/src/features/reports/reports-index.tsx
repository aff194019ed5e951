// /reports: the report types the user may open (reference §3.11: summary always, route bit 73,
// stops 74, trips 75, events 76) and the route player of /history.
import './reports.css';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Link } from 'react-router';
import { usePermittedReports } from './report-page.tsx';
import { REPORTS } from './report-types.ts';

export function ReportsIndex() {
  const { t } = useTranslation();
  const paths = usePermittedReports();
  return (
    <nav className="reports-index" aria-label={t('reports.selectType')} data-testid="reports-index">
      <p className="reports-index-title">{t('reports.selectType')}</p>
      <ul>
        {paths.map((p) => (
          <li key={p}>
            <Link to={`/reports/${p}`} className="reports-tile">
              <strong>{t(`reports.types.${REPORTS[p].kind}`)}</strong>
              <span>{t(`reports.typeHints.${REPORTS[p].kind}`)}</span>
            </Link>
          </li>
        ))}
        {paths.includes('history') && (
          <li>
            <Link to="/history" className="reports-tile">
              <strong>{t('reports.player')}</strong>
              <span>{t('history.hint')}</span>
            </Link>
          </li>
        )}
      </ul>
    </nav>
  );
}

export const Component = ReportsIndex;

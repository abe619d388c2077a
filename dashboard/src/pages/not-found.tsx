import { t } from '../i18n/index.js'
import { Empty, Page } from '../ui/components.js'

export default function NotFound() {
  return (
    <Page title={t('notFound.title')}>
      <Empty title={t('notFound.text')}>
        <a href="/dashboard">{t('notFound.back')}</a>
      </Empty>
    </Page>
  )
}

import { Empty, Page } from '../../ui/components.js'

// Replaced by the voice area's pages.
export default function VoiceArea() {
  return (
    <Page title="Voice">
      <Empty title="Voice" />
    </Page>
  )
}

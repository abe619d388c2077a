import { Route, Router } from 'preact-iso'
import ChannelDetail from './channel-detail.page.js'
import ChannelList from './channel-list.page.js'
import './channels.css'

/** /dashboard/channels: the ways customers reach the inbox (SMS, WhatsApp, web chat, e-mail): the list, and each channel's settings and business hours. */
export default function ChannelsArea() {
  return (
    <Router>
      <Route path="/" component={ChannelList} />
      <Route path="/:id" component={ChannelDetail} />
    </Router>
  )
}

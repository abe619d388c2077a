import { Route, Router } from 'preact-iso'
import LeadPage from './lead.page.js'
import Leads from './leads.page.js'
import './leads.css'

/** /dashboard/leads: leads with filters, and each lead's score factors, activities, CRM sync and status. */
export default function LeadsArea() {
  return (
    <Router>
      <Route path="/" component={Leads} />
      <Route path="/:id" component={LeadPage} />
    </Router>
  )
}

import { render } from 'preact'
import { App } from './app.js'
import { applyDocumentLanguage } from './i18n/index.js'
import './styles.css'

applyDocumentLanguage()
render(<App />, document.getElementById('app')!)

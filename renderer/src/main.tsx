import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { wireStoreReactions } from './stores/reactions.ts';
import './styles/theme.css';
import './styles/layout.css';
import './styles/layout-narrow.css';
import './styles/threads.css';
import './styles/reader.css';
import './styles/dialogs.css';
import './styles/saved-list.css';
import './styles/services.css';
import './styles/chat.css';
import './styles/approvals.css';
import './styles/permissions.css';
import './styles/accounts.css';
import './styles/triage.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html must contain #root.');
// Before the first render: App's first effects already start runs and reads whose reactions must be heard.
wireStoreReactions();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

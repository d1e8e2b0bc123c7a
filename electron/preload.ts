// The preload (thin, DESIGN §2): exposes exactly the contract's channels as `window.skimmer`, one function
// each, plus `subscribe`. No generic invoke, and callbacks never see the IpcRendererEvent.
import { contextBridge, ipcRenderer } from 'electron';
import { buildPreloadApi } from './preload-api.ts';

contextBridge.exposeInMainWorld('skimmer', buildPreloadApi(ipcRenderer));

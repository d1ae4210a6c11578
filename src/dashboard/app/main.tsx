/** The dashboard's browser app: mounted into the shell's <div id="app"> (served by src/dashboard). */
import { render } from 'preact';
import { Shell } from './shell.js';

const root = document.getElementById('app');
if (root) render(<Shell />, root);

/** Mounts the web app, after applying the reader's theme so the first paint is already right. */
import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { applyTheme, storedTheme } from './lib/theme.ts';

applyTheme(storedTheme());
mount(App, { target: document.getElementById('app')! });

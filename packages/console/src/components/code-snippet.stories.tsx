import type { Meta, StoryObj } from '@storybook/react-vite';
import { buildSnippets } from '../features/integrations/snippets';
import { CodeSnippet } from './code-snippet';

const snippets = buildSnippets({ origin: 'https://parley.example.com', appCode: 'K7P2QX9MRT' });

const meta = {
  title: 'Components/CodeSnippet',
  component: CodeSnippet,
  args: { code: snippets.curl, language: 'curl' },
} satisfies Meta<typeof CodeSnippet>;

export default meta;
type Story = StoryObj<typeof meta>;

/** curl to the OpenAI-compatible endpoint. */
export const Curl: Story = {};

/** The official openai client pointed at Parley. */
export const OpenAiClient: Story = { args: { code: snippets.openai, language: 'TypeScript' } };

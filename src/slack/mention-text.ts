/** Removes the bot's own mention(s) and tidies whitespace; other people's mentions are kept. */
export function stripBotMention(text: string, botUserId?: string): string {
  const own = botUserId ? new RegExp(`<@${botUserId}(?:\\|[^>]*)?>`, 'g') : /^\s*<@[A-Z0-9]+(?:\|[^>]*)?>/;
  return text.replace(own, ' ').replace(/[ \t]+/g, ' ').replace(/^\s+|\s+$/g, '');
}

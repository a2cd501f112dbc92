import Anthropic from '@anthropic-ai/sdk';

type Message = Anthropic.Messages.Message;
type Reply = Partial<Omit<Message, 'usage'>> & { usage?: Partial<Message['usage']> };
type Step = Reply | ((params: Anthropic.Messages.MessageCreateParams) => Reply | Promise<Reply>) | Error;

/** An in-process deterministic model for unit tests of the loop: plays `steps` in order, records requests. */
export function scriptedModel(steps: Step[]) {
  const requests: Anthropic.Messages.MessageCreateParams[] = [];
  let index = 0;
  const client = {
    messages: {
      async create(params: Anthropic.Messages.MessageCreateParams, options?: { signal?: AbortSignal }) {
        requests.push(structuredClone(params));
        if (options?.signal?.aborted) throw new Anthropic.APIUserAbortError();
        const step = steps[index++];
        if (step === undefined) throw new Error('scripted model ran out of steps');
        if (step instanceof Error) throw step;
        const partial = typeof step === 'function' ? await step(params) : step;
        return {
          id: `msg_${index}`,
          type: 'message',
          role: 'assistant',
          model: params.model,
          content: [],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          ...partial,
        } as Message;
      },
    },
  };
  return {
    client: client as unknown as Anthropic,
    requests,
    get calls() {
      return index;
    },
  };
}

let toolIds = 0;
export const toolUse = (name: string, input: unknown, text?: string): Partial<Message> => ({
  stop_reason: 'tool_use',
  content: [
    ...(text ? [{ type: 'text', text, citations: null }] : []),
    { type: 'tool_use', id: `toolu_${++toolIds}`, name, input, caller: undefined },
  ] as unknown as Message['content'],
});

export const text = (body: string, stop_reason: Message['stop_reason'] = 'end_turn'): Partial<Message> => ({
  stop_reason,
  content: [{ type: 'text', text: body, citations: null }] as unknown as Message['content'],
});

export const finish = (summary = 'done', verification = 'ran the tests') =>
  toolUse('finish_task', { summary, verification, filesChanged: [], openQuestions: [] });

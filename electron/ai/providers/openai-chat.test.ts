import { describeProviderContract } from '../../../test/support/provider-contract.ts';
import { classifyChatError, createChatMapper } from './openai-chat.ts';

describeProviderContract('openai-chat', () => createChatMapper(), classifyChatError);
